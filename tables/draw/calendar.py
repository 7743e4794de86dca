"""A game night as a calendar file (``.ics``, RFC 5545, written by the icalendar package): one
event at the night's time, three hours long, with the group's page as its link and a reminder
half an hour before (a VALARM), so a phone's calendar tells its owner."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils.translation import gettext as _
from icalendar import Alarm, Calendar, Event

from tables.models import GameNight

LENGTH = timedelta(hours=3)
REMINDER = timedelta(minutes=30)


def night_ics(night: GameNight, group_name: str, url: str, now: datetime) -> bytes:
    summary = _("Hold'em: %(group)s") % {"group": group_name}
    calendar = Calendar()
    calendar.add("prodid", "-//Hold'em with friends//game nights//EN")
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    event = Event()
    event.add("uid", f"game-night-{night.pk}-{night.group_id}@holdem")
    event.add("dtstamp", now)
    event.add("dtstart", night.starts_at)
    event.add("dtend", night.starts_at + LENGTH)
    event.add("summary", summary)
    event.add("description", "\n".join(part for part in (night.note, url) if part))
    event.add("url", url)
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", summary)
    alarm.add("trigger", -REMINDER)
    event.add_component(alarm)
    calendar.add_component(event)
    return bytes(calendar.to_ical())

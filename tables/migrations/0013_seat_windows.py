"""Each seat's window of hands moves with the seat: ``Seat.first_hand`` and
``FormerClaim.first_hand`` (until now only a late arrival's request kept its first hand), and
the count of a seat's open table pages (``Seat.connections``)."""

from typing import Any

from django.db import migrations, models


def windows_from_late_arrivals(apps: Any, schema_editor: Any) -> None:
    """A friend seated in a computer's seat saw the table's hands from their first hand on:
    their seat (or their former claim, if they left it since) keeps that window."""
    seat_request = apps.get_model("tables", "SeatRequest")
    seat = apps.get_model("tables", "Seat")
    former = apps.get_model("tables", "FormerClaim")
    seated = seat_request.objects.filter(status="seated", first_hand__isnull=False)
    for request in seated.exclude(position=None).iterator():
        where = {
            "table_id": request.table_id, "position": request.position,
            "claim_hash": request.claim_hash,
        }
        seat.objects.filter(**where).update(first_hand=request.first_hand)
        former.objects.filter(**where).update(first_hand=request.first_hand)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0012_tournament_pages"),
    ]

    operations = [
        migrations.AddField(
            model_name="formerclaim",
            name="first_hand",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seat",
            name="connections",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seat",
            name="first_hand",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(windows_from_late_arrivals, migrations.RunPython.noop),
    ]

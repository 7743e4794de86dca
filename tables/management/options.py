"""What the commands' options share: an option whose default is one of the settings."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import CommandParser


def setting_option(parser: CommandParser, flag: str, setting: str, help: str) -> None:
    """The option ``flag``, by default the setting named ``setting`` and read as that setting
    is (a whole number, a decimal); the help says which setting."""
    default = getattr(settings, setting)
    parser.add_argument(
        flag, type=type(default), default=default, help=f"{help} (default: {setting})",
    )

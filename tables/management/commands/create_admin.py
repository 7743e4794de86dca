"""Create the first admin account from environment variables, without any question asked.

    ADMIN_USERNAME=alice ADMIN_PASSWORD='a long secret' ADMIN_EMAIL=alice@example.org \\
        python manage.py create_admin

Safe to run on every deploy: an existing account of that name is made (or kept) a superuser
with that e-mail address; its password is only changed when it differs, so sessions survive.
"""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

MIN_PASSWORD = 10  # an admin can close any table: no short passwords, whatever the settings say


class Command(BaseCommand):
    help = "Create or update the admin named by ADMIN_USERNAME (with ADMIN_PASSWORD, ADMIN_EMAIL)."

    def handle(self, *args: Any, **options: Any) -> None:
        username = os.environ.get("ADMIN_USERNAME", "").strip()
        password = os.environ.get("ADMIN_PASSWORD", "")
        email = os.environ.get("ADMIN_EMAIL", "").strip()
        missing = [
            name for name, value in
            (("ADMIN_USERNAME", username), ("ADMIN_PASSWORD", password), ("ADMIN_EMAIL", email))
            if not value
        ]
        if missing:
            raise CommandError(f"Set {', '.join(missing)} in the environment.")
        if len(password) < MIN_PASSWORD:
            raise CommandError(f"ADMIN_PASSWORD must have at least {MIN_PASSWORD} characters.")
        model = get_user_model()
        with transaction.atomic():
            user = model._default_manager.select_for_update().filter(
                **{model.USERNAME_FIELD: username}
            ).first()
            created = user is None
            if user is None:
                user = model(**{model.USERNAME_FIELD: username})
            try:
                validate_password(password, user)
            except ValidationError as exc:
                raise CommandError("ADMIN_PASSWORD: " + " ".join(exc.messages)) from None
            changed = created
            for field, value in (("email", email), ("is_staff", True), ("is_superuser", True),
                                 ("is_active", True)):
                if getattr(user, field) != value:
                    setattr(user, field, value)
                    changed = True
            if created or not user.check_password(password):
                user.set_password(password)
                changed = True
            if changed:
                user.save()
        if created:
            self.stdout.write(self.style.SUCCESS(f"Created the admin account {username!r}."))
        elif changed:
            self.stdout.write(self.style.SUCCESS(f"Updated the admin account {username!r}."))
        else:
            self.stdout.write(f"The admin account {username!r} is already up to date.")

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_USERNAME = "organiser"
DEMO_PASSWORD = "tenbou-demo"


class Command(BaseCommand):
    help = "Create demonstration data for trying Tenbou locally. Safe to run repeatedly."

    def handle(self, *args, **options):
        user, created = get_user_model().objects.get_or_create(
            username=DEMO_USERNAME,
            defaults={"first_name": "Demo", "last_name": "Organiser"},
        )
        # Reset a changed password too, so that the login printed below always works.
        if created or not user.check_password(DEMO_PASSWORD):
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        verb = "Created" if created else "Kept"
        self.stdout.write(f"{verb} the demo organiser.")
        self.stdout.write(
            self.style.SUCCESS(
                f"Log in at http://127.0.0.1:8000/accounts/login/ as {DEMO_USERNAME} / "
                f"{DEMO_PASSWORD}"
            )
        )

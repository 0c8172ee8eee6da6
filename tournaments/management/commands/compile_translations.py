from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournaments.translations import CatalogueError, compile_all


class Command(BaseCommand):
    help = (
        "Compiles the translation catalogues (locale/*/LC_MESSAGES/*.po) into .mo files, "
        "without gettext's tools. `make run` and `make test` run it."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--force", action="store_true", help="Compile even the catalogues that look current."
        )

    def handle(self, *args, force=False, **options):
        compiled = []
        for locale_dir in settings.LOCALE_PATHS:
            try:
                compiled += compile_all(locale_dir, force=force)
            except CatalogueError as error:
                raise CommandError(f"Cannot compile a translation catalogue: {error}") from error
        for po in compiled:
            self.stdout.write(f"Compiled {po}")
        if not compiled:
            self.stdout.write("The compiled translations are up to date.")

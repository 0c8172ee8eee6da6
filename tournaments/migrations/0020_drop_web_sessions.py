# Sessions are Django's own again (django.contrib.sessions); everyone signs in once more.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0019_sanma_rule_presets"),
    ]

    operations = [
        migrations.DeleteModel(name="WebSession"),
    ]

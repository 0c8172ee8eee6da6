# Sessions are Django's own again (django.contrib.sessions); everyone signs in once more.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0018_records_token"),
    ]

    operations = [
        migrations.DeleteModel(name="WebSession"),
    ]

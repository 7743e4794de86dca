from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0005_late_arrivals'),
    ]

    operations = [
        migrations.AddField(
            model_name='hand',
            name='deck_root',
            field=models.CharField(blank=True, max_length=64),
        ),
    ]

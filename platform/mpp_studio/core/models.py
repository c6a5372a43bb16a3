"""The abstract base model every platform model extends."""

from django.db import models


class BaseModel(models.Model):
    """Adds creation and last-change timestamps."""

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True

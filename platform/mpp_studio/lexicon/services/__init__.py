"""Writes for vocabularies: the library catalogue, project vocabularies, their items and schemas.

Import from here; each submodule holds one area (library, vocabularies, imports, items, schema).
"""

from mpp_studio.lexicon.services.imports import (
    MAX_UPLOAD_BYTES,
    ImportRejected,
    Upload,
    max_upload_bytes,
    size_problem,
    vocabulary_import_upload,
)
from mpp_studio.lexicon.services.items import (
    item_features_clean,
    item_id_default,
    vocabulary_item_create,
    vocabulary_item_delete,
    vocabulary_item_update,
)
from mpp_studio.lexicon.services.library import vocabulary_content_hash, vocabulary_import
from mpp_studio.lexicon.services.schema import (
    SchemaChangeRefused,
    SchemaProblem,
    schema_from_input,
    vocabulary_feature_add,
    vocabulary_feature_delete,
    vocabulary_feature_update,
    vocabulary_schema_replace,
    vocabulary_schema_yaml_replace,
)
from mpp_studio.lexicon.services.vocabularies import (
    vocabulary_create,
    vocabulary_create_from_lexicon,
    vocabulary_delete,
    vocabulary_name_free,
    vocabulary_snapshot_ensure,
    vocabulary_update,
)

__all__ = [
    "MAX_UPLOAD_BYTES",
    "ImportRejected",
    "SchemaChangeRefused",
    "SchemaProblem",
    "Upload",
    "item_features_clean",
    "item_id_default",
    "max_upload_bytes",
    "schema_from_input",
    "size_problem",
    "vocabulary_content_hash",
    "vocabulary_create",
    "vocabulary_create_from_lexicon",
    "vocabulary_delete",
    "vocabulary_feature_add",
    "vocabulary_feature_delete",
    "vocabulary_feature_update",
    "vocabulary_import",
    "vocabulary_import_upload",
    "vocabulary_item_create",
    "vocabulary_item_delete",
    "vocabulary_item_update",
    "vocabulary_name_free",
    "vocabulary_schema_replace",
    "vocabulary_schema_yaml_replace",
    "vocabulary_snapshot_ensure",
    "vocabulary_update",
]

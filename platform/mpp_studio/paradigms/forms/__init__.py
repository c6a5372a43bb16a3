"""The paradigms forms, one module per area: the preview, the template editor's state, the library
import, phrases and the ZhoBLiMP import."""

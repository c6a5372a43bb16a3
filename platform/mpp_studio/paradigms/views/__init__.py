"""The paradigms pages, one module per area: the library catalogue, the template editor, template
files (upload and download), the library import, phrases and the ZhoBLiMP import."""

"""Document types as data: one module per type, one registry (`registry.py`).

Import `gdpr.doctypes.registry` for `DOCUMENT_TYPES` / `get_document_type`; this
package itself stays import-light so that the declarations can be loaded in any order.
"""

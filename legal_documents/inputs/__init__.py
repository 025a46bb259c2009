"""The app's edge of the GDPR rules: DRF serializers validating each type's create body.

`gdpr/` (the rules) knows nothing of DRF; `registry.py` here attaches each document type's
input serializer to its `gdpr` declaration.
"""

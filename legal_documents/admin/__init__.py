"""The DPO's console in the admin, one module per concern.

`documents` registers the ModelAdmins (documents, versions, packages); `flow` is the
create/answer/draft/finalize/iterate mixin, `forms` the forms generated from the document
types, `assets` the asset search page. Django's autodiscovery imports this package, so the
registrations happen here.
"""

from legal_documents.admin import documents as documents  # registers the admins

from common.routers import ApiRouter
from legal_documents.views.closing import LegalDocumentClosingViewSet
from legal_documents.views.documents import LegalDocumentViewSet
from legal_documents.views.flow import LegalDocumentFlowViewSet
from legal_documents.views.history import DocumentHistoryViewSet
from legal_documents.views.packages import DocumentationIndexViewSet, DocumentationPackageViewSet

router = ApiRouter()
router.register("legal-documents", LegalDocumentViewSet, basename="legal-document")
# Versions, verify, export: detail routes beside the main ones (own basename, no shadowing).
router.register("legal-documents", DocumentHistoryViewSet, basename="legal-document-history")
# Questionnaire, draft, generate, iterate: detail actions of the guided flow.
router.register("legal-documents", LegalDocumentFlowViewSet, basename="legal-document-flow")
# A breach notified, a request answered: the document's clock closed (services/closing.py).
router.register("legal-documents", LegalDocumentClosingViewSet, basename="legal-document-closing")
router.register("documentation-index", DocumentationIndexViewSet, basename="documentation-index")
router.register(
    "documentation-packages", DocumentationPackageViewSet, basename="documentation-package"
)
urlpatterns = router.urls

from common.routers import ApiRouter
from legal_documents.views.documents import LegalDocumentViewSet

router = ApiRouter()
router.register("legal-documents", LegalDocumentViewSet, basename="legal-document")
urlpatterns = router.urls

from audit.views import AuditEventViewSet
from common.routers import ApiRouter

router = ApiRouter()
router.register("audit-events", AuditEventViewSet, basename="audit-event")
urlpatterns = router.urls

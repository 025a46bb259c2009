from common.routers import ApiRouter
from webhooks.views import WebhookEndpointViewSet

router = ApiRouter()
router.register("webhooks", WebhookEndpointViewSet, basename="webhook")
urlpatterns = router.urls

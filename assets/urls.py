from assets.views import AssetViewSet
from common.routers import ApiRouter

router = ApiRouter()
router.register("assets", AssetViewSet, basename="asset")
urlpatterns = router.urls

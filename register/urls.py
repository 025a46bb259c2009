from common.routers import ApiRouter
from register.views import ProcessingActivityViewSet, TransferViewSet, VendorViewSet

router = ApiRouter()
router.register("processing-activities", ProcessingActivityViewSet, basename="processing-activity")
router.register("vendors", VendorViewSet, basename="vendor")
router.register("transfers", TransferViewSet, basename="transfer")
urlpatterns = router.urls

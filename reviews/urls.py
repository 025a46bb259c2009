from common.routers import ApiRouter
from reviews.views import ReviewViewSet

router = ApiRouter()
router.register("reviews", ReviewViewSet, basename="review")
urlpatterns = router.urls

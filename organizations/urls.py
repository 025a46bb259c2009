from common.routers import ApiRouter
from organizations.views import ClientCompanyViewSet

router = ApiRouter()
router.register("client-companies", ClientCompanyViewSet, basename="client-company")
urlpatterns = router.urls

from django.apps import AppConfig


class ReviewsConfig(AppConfig):
    name = "reviews"

    def ready(self) -> None:
        from common.background import kinds
        from reviews.work import REVIEW

        # The one sweeper of background work (common.background) finds the kind here.
        kinds.register(REVIEW)

        from assets.selectors import asset_finished
        from reviews.running import wake_waiting_reviews

        # A review waiting for its asset runs as soon as the asset's processing ends.
        asset_finished.connect(wake_waiting_reviews, dispatch_uid="reviews.wake_waiting_reviews")

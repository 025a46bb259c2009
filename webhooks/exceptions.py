"""What the webhook services refuse (see common.domain)."""

from __future__ import annotations

from typing import Any

from common.domain import InvalidInput, PermissionRefused


class PlanRequired(PermissionRefused):
    """The organization's plan does not include webhooks."""

    code = "PLAN_REQUIRED"

    def __init__(self, *, plan: str, required_plans: list[str]) -> None:
        super().__init__(
            "Webhooks are available on the business and enterprise plans.",
            details={"plan": plan, "requiredPlans": required_plans},
        )


class InvalidEndpoint(InvalidInput):
    """The endpoint's URL or events are refused; `details` names the field."""

    def __init__(self, details: dict[str, Any]) -> None:
        super().__init__("The request is not valid.", details=details)

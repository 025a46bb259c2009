"""How drf-spectacular documents our authentication classes."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiKeyScheme(OpenApiAuthenticationExtension):
    target_class = "organizations.authentication.ApiKeyAuthentication"
    name = ["bearerAuth", "apiKeyHeader"]

    def get_security_definition(self, auto_schema):  # type: ignore[no-untyped-def]
        return [
            {"type": "http", "scheme": "bearer", "description": "An API key: `Bearer ld_...`"},
            {"type": "apiKey", "in": "header", "name": "X-API-Key"},
        ]


class SessionScheme(OpenApiAuthenticationExtension):
    target_class = "organizations.authentication.SessionAuthentication"
    name = "sessionAuth"

    def get_security_definition(self, auto_schema):  # type: ignore[no-untyped-def]
        return {"type": "apiKey", "in": "cookie", "name": "sessionid"}

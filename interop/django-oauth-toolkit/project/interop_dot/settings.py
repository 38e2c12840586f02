# The Django project of the django-oauth-toolkit leg (interop/django-oauth-toolkit/leg.ts copies
# it into the git-ignored cache at every start): Django OAuth Toolkit configured as a tenant admin
# would. Everything that changes per start (the issuer, the secret key, the RSA signing key, the
# database file) comes in DOT_LEG_CONFIG, written by the leg; nothing is printed.
import json
import os

CONFIG = json.loads(os.environ["DOT_LEG_CONFIG"])

DEBUG = False
SECRET_KEY = CONFIG["secretKey"]
ALLOWED_HOSTS = ["127.0.0.1"]
ROOT_URLCONF = "interop_dot.urls"
WSGI_APPLICATION = "interop_dot.wsgi.application"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

# One SQLite file per start. Its writers (gunicorn's threads) wait their turn: WAL, a busy
# timeout, and the write lock taken when a transaction begins.
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": CONFIG["database"],
        "OPTIONS": {
            "timeout": 30,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's own login view with the admin's login template (interop_dot/urls.py); the
# authorization endpoint sends an anonymous browser there (LoginRequiredMixin).
LOGIN_URL = "/accounts/login/"
STATIC_URL = "/static/"
STATIC_ROOT = CONFIG["staticRoot"]
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_CODE = "en-us"



def pkce_required(client_id):
    """PKCE for public clients (RFC 9700 §2.1.1: MUST); a confidential client authenticates with its secret at the exchange."""
    from oauth2_provider.models import get_application_model

    app = get_application_model().objects.filter(client_id=client_id).first()
    return app is None or app.client_type == app.CLIENT_PUBLIC


OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_ISS_ENDPOINT": CONFIG["issuer"],
    "OIDC_RSA_PRIVATE_KEY": CONFIG["signingKey"],
    "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
    "SCOPES": {
        "openid": "OpenID Connect",
        "profile": "Your name",
        "email": "Your e-mail address",
        "offline_access": "Access while you are away",
    },
    "DEFAULT_SCOPES": ["openid"],
    # Every application is registered for the authorization code (configure.py): discovery says so.
    "OIDC_RESPONSE_TYPES_SUPPORTED": ["code"],
    "PKCE_REQUIRED": pkce_required,
    "OAUTH2_VALIDATOR_CLASS": "interop_dot.oauth.ClaimsValidator",
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https"],
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    # The library's RFC 9700 gates, adopted as its documentation advises (each defaults to
    # False until its 4.0): no implicit or password grant, S256 only, no access token in a
    # query string, `iss` in authorization responses, tokens stored hashed.
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
}

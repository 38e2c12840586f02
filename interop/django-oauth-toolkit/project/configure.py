# Sets up one start of the django-oauth-toolkit leg, as a tenant admin would (run by leg.ts with
# the venv's python before the server starts): the database's tables, the admin's static files,
# the two users and one application per way to authenticate, all from DOT_LEG_CONFIG.
import json
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "interop_dot.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from oauth2_provider.models import get_application_model  # noqa: E402

CONFIG = json.loads(os.environ["DOT_LEG_CONFIG"])
Application = get_application_model()

call_command("migrate", interactive=False, verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)

for u in CONFIG["users"]:
    get_user_model().objects.create_user(
        username=u["username"], email=u["username"], password=u["password"], first_name=u["name"]
    )

# One grant type per application is DOT's model: every client here is registered for the
# authorization code (refresh tokens come with it), with ID tokens signed RS256.
for c in CONFIG["clients"]:
    Application.objects.create(
        name=c["name"],
        client_id=c["id"],
        **({"client_secret": c["secret"]} if c.get("secret") else {}),
        client_type=Application.CLIENT_CONFIDENTIAL if c.get("secret") else Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=CONFIG["redirectUri"],
        post_logout_redirect_uris=CONFIG["logoutReturnTo"],
        algorithm=Application.RS256_ALGORITHM,
    )

# The claims of the leg's users, as DOT's documentation has an admin add them: the validator's
# get_additional_claims, request-agnostic so that discovery lists them (claims_supported), each
# released with its scope (OAuth2Validator.oidc_claim_scope: email and email_verified with
# `email`, name and preferred_username with `profile`); `sub` is DOT's own (the user's key).
from oauth2_provider.oauth2_validators import OAuth2Validator


class ClaimsValidator(OAuth2Validator):
    def get_additional_claims(self):
        return {
            "email": lambda request: request.user.email,
            "email_verified": lambda request: True,
            "name": lambda request: request.user.get_full_name(),
            "preferred_username": lambda request: request.user.get_username(),
        }

"""Generate tests/data/secret_rules.json: a positive and a negative vector for every secret rule.

The recipes below are written from each provider's published token format, independently of the
regular expressions in securemem/pii/catalogue.py: a recipe is literal text with «» around the
secret and {CLASS COUNT} fields filled with seeded random characters. The negative vector is a near
miss (too short, wrong alphabet, or missing its marker); where none is given, the longest field of
the positive is made 4 characters shorter.

    python tests/data/make_secret_rules.py [OUT]
"""

from __future__ import annotations

import json
import random
import re
import string
import sys
from pathlib import Path

OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("secret_rules.json")
R = random.Random(20250301)

CLASSES = {
    "A": string.ascii_letters + string.digits,
    "B": string.ascii_letters + string.digits + "_-",
    "S": string.ascii_letters + string.digits + "+/",
    "H": "0123456789abcdef",
    "X": "0123456789ABCDEF",
    "D": string.digits,
    "U": string.ascii_uppercase + string.digits,
    "u": string.ascii_uppercase,
    "L": string.ascii_lowercase + string.digits,
    "a": string.ascii_lowercase,
    "l": string.ascii_letters,
    "Z": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
    "G": "abcdefgh0123456789",
    "b": "234567abcdefghijklmnopqrstuvwxyz",
    "J": string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)",
}
FIELD = re.compile(r"\{(UUID|[A-Za-z])(\d*)\}")


def fill(recipe: str) -> str:
    def one(match: re.Match[str]) -> str:
        if match[1] == "UUID":
            h = "".join(R.choice(CLASSES["H"]) for _ in range(32))
            return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
        alphabet = CLASSES[match[1]]
        out = "".join(R.choice(alphabet) for _ in range(int(match[2])))
        # Random bodies of letters and digits get both, as real tokens almost always do.
        if len(out) >= 8 and any(c.isdigit() for c in alphabet) and any(c.isalpha() for c in alphabet):
            digit = R.choice([c for c in alphabet if c.isdigit()])  # of the alphabet: bech32 has no "1"
            out = digit + out[1:-1] + R.choice([c for c in alphabet if c.isalpha()])
        return out

    return FIELD.sub(one, recipe)


def shorten(recipe: str) -> str:
    fields = [m for m in FIELD.finditer(recipe) if m[1] != "UUID" and m[2]]
    longest = max(fields, key=lambda m: int(m[2]))
    return recipe[: longest.start()] + f"{{{longest[1]}{int(longest[2]) - 4}}}" + recipe[longest.end() :]


# (type, positive recipe, negative recipe or None). A recipe without «» is the secret itself,
# placed in a rotating neutral context.
RECIPES: list[tuple[str, str, str | None]] = [
    ("GITHUB_PAT", "ghp_{A36}", None),
    ("GITHUB_OAUTH_TOKEN", "gho_{A36}", None),
    ("GITHUB_APP_TOKEN", "ghs_{A36}", "ghx_{A36}"),
    ("GITHUB_REFRESH_TOKEN", "ghr_{A36}", None),
    ("GITHUB_FINE_GRAINED_PAT", "github_pat_{A22}_{A59}", "github_pat_{A22}{A59}"),
    ("GITLAB_PAT", "glpat-{B20}", None),
    ("GITLAB_DEPLOY_TOKEN", "gldt-{B20}", None),
    ("GITLAB_PIPELINE_TRIGGER_TOKEN", "glptt-{H40}", "glptt-{u40}"),
    ("GITLAB_RUNNER_REGISTRATION_TOKEN", "GR1348941{B20}", None),
    ("GITLAB_RUNNER_TOKEN", "glrt-{B20}", None),
    ("GITLAB_SCIM_TOKEN", "glsoat-{B20}", None),
    ("GITLAB_CI_JOB_TOKEN", "glcbt-{A2}_{B20}", "glcbt-{A2}{B20}"),
    ("GITLAB_FEATURE_FLAG_TOKEN", "glffct-{B20}", None),
    ("GITLAB_INCOMING_MAIL_TOKEN", "glimt-{B25}", None),
    ("GITLAB_AGENT_TOKEN", "glagent-{B50}", None),
    ("GITLAB_OAUTH_SECRET", "gloas-{B64}", None),
    ("GITLAB_FEED_TOKEN", "glft-{B20}", None),
    ("BITBUCKET_APP_PASSWORD", "ATBB{A32}", None),
    ("ATLASSIAN_API_TOKEN", "ATATT3{B186}", "ATATT3{B120}"),
    ("SLACK_BOT_TOKEN", "xoxb-{D12}-{D13}-{A24}", "xoxb-hello-world-again"),
    ("SLACK_USER_TOKEN", "xoxp-{D11}-{D11}-{D12}-{A32}", "xoxp-notes-on-slack"),
    ("SLACK_LEGACY_WORKSPACE_TOKEN", "xoxa-2-{A40}", "xoxa-hugsandkisses"),
    ("SLACK_LEGACY_TOKEN", "xoxs-{D10}-{D10}-{D12}-{H64}", "xoxo-hugs-and-kisses"),
    ("SLACK_CONFIG_TOKEN", "xoxe.xoxp-1-{U164}", "xoxe.xoxp-1-{U40}"),
    ("SLACK_REFRESH_TOKEN", "xoxe-1-{U146}", "xoxe-1-{U40}"),
    ("SLACK_APP_TOKEN", "xapp-1-{U11}-{D13}-{H64}", "xapp-1-{U11}-{H64}"),
    ("TWILIO_API_KEY", "SK{H32}", "SK{u32}"),
    ("SENDGRID_API_KEY", "SG.{B22}.{B43}", "SG.{B22}{B43}"),
    ("MAILGUN_API_KEY", "key-{H32}", "key-{u32}"),
    ("BREVO_API_KEY", "xkeysib-{H64}-{A16}", None),
    ("BREVO_SMTP_KEY", "xsmtpsib-{H64}-{A16}", None),
    ("NEW_RELIC_USER_KEY", "NRAK-{U27}", None),
    ("NEW_RELIC_INSERT_KEY", "NRII-{B32}", None),
    ("NEW_RELIC_BROWSER_KEY", "NRJS-{H19}", None),
    ("FACEBOOK_ACCESS_TOKEN", "EAAC{A150}", "EAAC{A60}"),
    ("TWITTER_BEARER_TOKEN", "AAAAAAAAAAAAAAAAAAAAAA{A90}", "AAAAAAAAAAAAAAAAAAAAAA{A40}"),
    ("ANTHROPIC_API_KEY", "sk-ant-api03-{B93}AA", "sk-ant-api03-{B10}"),
    ("ANTHROPIC_ADMIN_KEY", "sk-ant-admin01-{B93}AA", "sk-ant-admin01-{B10}"),
    ("ANTHROPIC_OAUTH_TOKEN", "sk-ant-oat01-{B93}AA", "sk-ant-oat01-{B10}"),
    ("ANTHROPIC_SESSION_KEY", "sk-ant-sid01-{B93}AA", "sk-ant-sid01-{B10}"),
    ("OPENAI_API_KEY", "sk-proj-{B74}T3BlbkFJ{B74}", "sk-proj-{B10}"),
    ("OPENAI_LEGACY_API_KEY", "sk-{A20}T3BlbkFJ{A20}", "sk-{A20}T3BlbkFX{A20}"),
    ("LANGFUSE_SECRET_KEY", "sk-lf-{UUID}", "sk-lf-{H32}"),
    ("SK_API_KEY", "sk-{A48}", "sk-learn-compatible-estimators-list"),
    ("PERPLEXITY_API_KEY", "pplx-{A48}", None),
    ("GROQ_API_KEY", "gsk_{A52}", None),
    ("REPLICATE_API_TOKEN", "r8_{A37}", None),
    ("XAI_API_KEY", "xai-{A80}", None),
    ("HUGGINGFACE_TOKEN", "hf_{l34}", None),
    ("HUGGINGFACE_ORG_TOKEN", "api_org_{l34}", None),
    ("LANGSMITH_API_KEY", "lsv2_pt_{H32}_{H10}", "lsv2_pt_{H32}{H10}"),
    ("PINECONE_API_KEY", "pcsk_{A6}_{A64}", "pcsk_{A6}{A64}"),
    ("ELEVENLABS_API_KEY", "sk_{H48}", "sk_{u48}"),
    ("NPM_TOKEN", "npm_{A36}", None),
    ("PYPI_TOKEN", "pypi-AgEIcHlwaS5vcmc{B70}", "pypi-AgEIcHlwaS5vcmc{B30}"),
    ("TESTPYPI_TOKEN", "pypi-AgENdGVzdC5weXBpLm9yZw{B70}", "pypi-AgENdGVzdC5weXBpLm9yZw{B30}"),
    ("RUBYGEMS_API_KEY", "rubygems_{H48}", None),
    ("NUGET_API_KEY", "oy2{L43}", None),
    ("CLOJARS_TOKEN", "CLOJARS_{L60}", None),
    ("DOCKER_HUB_TOKEN", "dckr_pat_{B27}", None),
    ("AWS_ACCESS_KEY", "AKIA{U16}", None),
    ("AWS_SESSION_TOKEN", "FwoGZXIvYXdzE{S200}", "FwoGZXIvYXdzE{S60}"),
    ("GOOGLE_API_KEY", "AIza{B35}", None),
    ("GOOGLE_OAUTH_CLIENT_SECRET", "GOCSPX-{B28}", None),
    ("GOOGLE_OAUTH_ACCESS_TOKEN", "ya29.{B120}", "ya29.{B12}"),
    ("DIGITALOCEAN_PAT", "dop_v1_{H64}", None),
    ("DIGITALOCEAN_OAUTH_TOKEN", "doo_v1_{H64}", None),
    ("DIGITALOCEAN_REFRESH_TOKEN", "dor_v1_{H64}", None),
    ("ALIBABA_ACCESS_KEY_ID", "LTAI{A20}", None),
    ("DATABRICKS_TOKEN", "dapi{H32}", None),
    ("DOPPLER_TOKEN", "dp.pt.{A43}", None),
    ("DYNATRACE_TOKEN", "dt0c01.{U24}.{U64}", "dt0c01.{U24}{U64}"),
    ("VAULT_SERVICE_TOKEN", "hvs.{B95}", "hvs.{B16}"),
    ("VAULT_BATCH_TOKEN", "hvb.{B140}", "hvb.{B40}"),
    ("PULUMI_ACCESS_TOKEN", "pul-{H40}", None),
    ("CLOUDFLARE_ORIGIN_CA_KEY", "v1.0-{H24}-{H146}", "v1.0-{H24}{H146}"),
    ("SCALINGO_TOKEN", "tk-us-{B48}", None),
    ("FLY_IO_TOKEN", "fo1_{B43}", None),
    ("FLY_IO_MACAROON", "fm2_{S180}", "fm2_{S40}"),
    ("RENDER_API_KEY", "rnd_{A32}", None),
    ("NEON_API_KEY", "napi_{L64}", None),
    ("SUPABASE_ACCESS_TOKEN", "sbp_{H40}", None),
    ("SUPABASE_SECRET_KEY", "sb_secret_{B32}", "sb_secret_{B12}"),
    ("PLANETSCALE_TOKEN", "pscale_tkn_{B43}", "pscale_tkn_{B20}"),
    ("PLANETSCALE_PASSWORD", "pscale_pw_{B43}", "pscale_pw_{B20}"),
    ("TAILSCALE_KEY", "tskey-auth-{A12}-{A32}", "tskey-other-{A12}-{A32}"),
    ("DENO_DEPLOY_TOKEN", "ddp_{A36}", None),
    ("NETLIFY_TOKEN", "nfp_{A36}", None),
    ("HEROKU_API_KEY", "HRKU-AA{B58}", None),
    ("OPENSHIFT_TOKEN", "sha256~{B43}", None),
    ("YANDEX_API_KEY", "AQVN{B36}", "AQVN{B20}"),
    ("YANDEX_IAM_TOKEN", "t1.{B40}.{B86}", "t1.{B40}.{B40}"),
    ("JFROG_API_KEY", "AKCp{A69}", None),
    ("JFROG_REFERENCE_TOKEN", "cmVmdGtuOjAx{A52}", None),
    ("GRAFANA_CLOUD_TOKEN", "glc_{S60}", "glc_{S20}"),
    ("GRAFANA_SERVICE_ACCOUNT_TOKEN", "glsa_{A32}_{H8}", "glsa_{A32}{H8}"),
    ("GRAFANA_API_KEY", "eyJrIjoi{A90}", "eyJrIjoi{A40}"),
    ("HARNESS_TOKEN", "pat.{B22}.{A24}.{A20}", "pat.{B22}.{A24}"),
    ("OCTOPUS_DEPLOY_API_KEY", "API-{U26}", "API-{u12}"),
    ("AGE_SECRET_KEY", "AGE-SECRET-KEY-1{Z58}", None),
    ("ONEPASSWORD_SECRET_KEY", "A3-{U6}-{U11}-{U5}-{U5}-{U5}", "A3-{U6}-{U11}-{U5}-{U5}"),
    ("ONEPASSWORD_SERVICE_TOKEN", "ops_eyJ{S300}", "ops_eyJ{S80}"),
    ("LINEAR_API_KEY", "lin_api_{A40}", None),
    ("NOTION_TOKEN", "ntn_{D11}{A35}", None),
    ("NOTION_LEGACY_TOKEN", "secret_{A43}", None),
    ("POSTMAN_API_KEY", "PMAK-{H24}-{H34}", None),
    ("SENTRY_USER_TOKEN", "sntryu_{H64}", None),
    ("SENTRY_ORG_TOKEN", "sntrys_eyJpYXQiO{S120}_{S43}", "sntrys_eyJpYXQiO{S120}"),
    ("SOURCEGRAPH_TOKEN", "sgp_{H16}_{H40}", "sgp_{u40}"),
    ("SONARQUBE_TOKEN", "squ_{H40}", None),
    ("BUILDKITE_TOKEN", "bkua_{H40}", None),
    ("CIRCLECI_TOKEN", "CCIPAT_{A22}_{H40}", None),
    ("PREFECT_API_KEY", "pnu_{A36}", None),
    ("README_API_KEY", "rdme_{L70}", None),
    ("FIGMA_TOKEN", "figd_{B40}", None),
    ("FRAMEIO_TOKEN", "fio-u-{B64}", None),
    ("INFRACOST_API_KEY", "ico-{A32}", None),
    ("CONTENTFUL_PAT", "CFPAT-{B43}", None),
    ("DEFINED_NETWORKING_KEY", "dnkey-{L26}-{L52}", None),
    ("EASYPOST_API_KEY", "EZAK{A54}", None),
    ("SETTLEMINT_TOKEN", "sm_pat_{A16}", None),
    ("CLICKHOUSE_CLOUD_SECRET", "4b1d{A38}", None),
    ("ADOBE_CLIENT_SECRET", "p8e-{A32}", None),
    ("INTRA42_CLIENT_SECRET", "s-s4t2ud-{H64}", None),
    ("TYPEFORM_TOKEN", "tfp_{B59}", None),
    ("AIRTABLE_PAT", "pat{A14}.{H64}", "pat{A14}{H64}"),
    ("HUBSPOT_PRIVATE_APP_TOKEN", "pat-na1-{UUID}", "pat-xx1-{UUID}"),
    ("MAPBOX_SECRET_TOKEN", "sk.eyJ1Ijoi{B60}.{B22}", "pk.eyJ1Ijoi{B60}.{B22}"),
    ("DROPBOX_ACCESS_TOKEN", "sl.{B140}", "sl.{B40}"),
    ("RESEND_API_KEY", "re_{A8}_{A24}", "re_{A8}{A24}"),
    ("STRIPE_SECRET_KEY", "sk_live_{A24}", "pk_live_{A24}"),
    ("STRIPE_RESTRICTED_KEY", "rk_live_{A32}", "rk_play_{A32}"),
    ("STRIPE_WEBHOOK_SECRET", "whsec_{A32}", None),
    ("SHOPIFY_ACCESS_TOKEN", "shpat_{H32}", None),
    ("SHOPIFY_SHARED_SECRET", "shpss_{H32}", None),
    ("SQUARE_ACCESS_TOKEN", "EAAA{B60}", "EAAA{B12}"),
    ("SQUARE_OAUTH_SECRET", "sq0csp-{B43}", None),
    ("BRAINTREE_ACCESS_TOKEN", "access_token$production${L16}${H32}", "access_token$production${L16}"),
    ("FLUTTERWAVE_SECRET_KEY", "FLWSECK_TEST-{G32}-X", "FLWSECK_TEST-{G32}"),
    ("FLUTTERWAVE_ENCRYPTION_KEY", "FLWSECK_TEST{G12}", None),
    ("DUFFEL_TOKEN", "duffel_live_{B43}", None),
    ("SHIPPO_TOKEN", "shippo_live_{H40}", None),
    ("PLAID_ACCESS_TOKEN", "access-production-{UUID}", "access-nowhere-{UUID}"),
    ("KLAVIYO_PRIVATE_KEY", "pk_{H34}", None),
    ("PADDLE_API_KEY", "pdl_live_apikey_{L26}_{A22}_{A3}", "pdl_live_apikey_{L20}"),
    ("SALESFORCE_ACCESS_TOKEN", "00D{A15}!{A100}", "00D{A15}{A100}"),
    # anchored
    ("SLACK_WEBHOOK", "https://hooks.slack.com/services/T{U8}/B{U10}/{A24}", "https://hooks.slack.com/services/"),
    (
        "DISCORD_WEBHOOK",
        "https://discord.com/api/webhooks/{D18}/{B68}",
        "https://discord.com/api/webhooks/{D18}/{B20}",
    ),
    (
        "TEAMS_WEBHOOK",
        "https://contoso.webhook.office.com/webhookb2/{UUID}@{UUID}/IncomingWebhook/{H32}/{UUID}",
        "https://contoso.webhook.office.com/webhookb2/{UUID}",
    ),
    ("ZAPIER_WEBHOOK", "https://hooks.zapier.com/hooks/catch/{D7}/{L7}/", "https://hooks.zapier.com/hooks/catch/"),
    ("GOOGLE_OAUTH_REFRESH_TOKEN", "1//0{B100}", "1//0{B20}"),
    ("FIREBASE_CLOUD_MESSAGING_KEY", "AAAA{B7}:APA91b{B134}", "AAAA{B7}:APA91b{B40}"),
    ("TELEGRAM_BOT_TOKEN", "{D10}:AA{B33}", "{D10}:BB{B33}"),
    ("AZURE_AD_CLIENT_SECRET", "{A3}8Q~{B34}", "{A3}8Q~{B12}"),
    (
        "AZURE_STORAGE_KEY",
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=«{S86}==»;EndpointSuffix=core.windows.net",
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=«{S40}»;EndpointSuffix=core.windows.net",
    ),
    (
        "AZURE_SHARED_ACCESS_KEY",
        "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=«{S43}=»",
        "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=«{S12}»",
    ),
    (
        "AZURE_SAS_SIGNATURE",
        "https://acct.blob.core.windows.net/c/b.txt?«sv=2022-11-02&se=2025-01-01&sp=r&sig={S43}%3D»",
        "https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&sp=r&sig=«{S12}»",
    ),
    ("TERRAFORM_CLOUD_TOKEN", "{A14}.atlasv1.{B67}", "{A14}.atlasv1.{B20}"),
    ("MAXMIND_LICENSE_KEY", "{A6}_{A29}_mmk", "{A6}_{A12}_mmk"),
    ("MAILCHIMP_API_KEY", "{H32}-us14", "{H20}-us14"),
    ("NEW_RELIC_LICENSE_KEY", "{H36}NRAL", "{H20}NRAL"),
    (
        "PRIVATE_KEY",
        "«PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ops\nPublic-Lines: 2\n{S64}\n{S20}\n"
        "Private-Lines: 1\n{S44}\nPrivate-MAC: {H64}»",
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ops\nPublic-Lines: 2\n{S64}\n",
    ),
    # keyed: known by the name they are given
    ("AWS_SECRET_KEY", "aws_secret_access_key = «{S40}»", "aws_secret_access_key = «{S30}»"),
    ("HEROKU_API_KEY", "HEROKU_API_KEY=«{UUID}»", "HEROKU_APP_NAME=«{UUID}»"),
    ("DATADOG_API_KEY", "DD_API_KEY=«{H32}»", "DD_API_KEY=«{H20}»"),
    ("OKTA_API_TOKEN", "okta_api_token: «00{B40}»", "okta_api_token: «11{B40}»"),
    ("ALGOLIA_API_KEY", 'algolia_admin_key = "«{H32}»"', 'algolia_admin_key = "«{H20}»"'),
    ("CLOUDFLARE_API_TOKEN", "CLOUDFLARE_API_TOKEN=«{B40}»", "CLOUDFLARE_ZONE_ID=«{H32}»"),
    ("TWILIO_AUTH_TOKEN", "TWILIO_AUTH_TOKEN=«{H32}»", "TWILIO_AUTH_TOKEN=«{H20}»"),
    ("SNYK_TOKEN", "SNYK_TOKEN=«{UUID}»", "SNYK_ORG_ID=«{UUID}»"),
    ("AZURE_DEVOPS_PAT", "AZURE_DEVOPS_EXT_PAT=«{b52}»", "AZURE_DEVOPS_EXT_PAT=«{b30}»"),
    ("CODECOV_TOKEN", "CODECOV_TOKEN=«{UUID}»", "CODECOV_URL=«https://codecov.io»"),
    ("LAUNCHDARKLY_KEY", "LAUNCHDARKLY_SDK_KEY=«sdk-{UUID}»", "LAUNCHDARKLY_SDK_KEY=«xyz-{UUID}»"),
    ("SLACK_SIGNING_SECRET", "SLACK_SIGNING_SECRET=«{H32}»", "SLACK_SIGNING_SECRET=«{H20}»"),
    ("GOCARDLESS_TOKEN", "GOCARDLESS_ACCESS_TOKEN=«live_{B40}»", "GOCARDLESS_ACCESS_TOKEN=«test_{B40}»"),
    ("TRAVIS_CI_TOKEN", "TRAVIS_API_TOKEN=«{A22}»", "TRAVIS_API_TOKEN=«{A30}»"),
    ("DISCORD_CLIENT_SECRET", "DISCORD_CLIENT_SECRET=«{B32}»", "DISCORD_CLIENT_SECRET=«{B20}»"),
    ("CONFLUENT_SECRET", "CONFLUENT_API_SECRET=«{A64}»", "CONFLUENT_API_SECRET=«{A20}»"),
    ("KAGGLE_KEY", 'kaggle_key: "«{H32}»"', 'kaggle_key: "«{H20}»"'),
    ("WANDB_API_KEY", "WANDB_API_KEY=«{H40}»", "WANDB_API_KEY=«{H30}»"),
    ("FASTLY_API_TOKEN", "FASTLY_API_TOKEN=«{B32}»", "FASTLY_API_TOKEN=«{B20}»"),
    ("MAILGUN_SIGNING_KEY", "MAILGUN_SIGNING_KEY=«{H32}-{H8}-{H8}»", "MAILGUN_SIGNING_KEY=«{H32}-{H8}»"),
    ("SENDBIRD_TOKEN", "SENDBIRD_API_TOKEN=«{H40}»", "SENDBIRD_API_TOKEN=«{H30}»"),
    ("ASANA_TOKEN", "ASANA_ACCESS_TOKEN=«1/{D16}:{H32}»", "ASANA_PROJECT=«1/{D16}»"),
    ("DJANGO_SECRET_KEY", "django-insecure-{J50}", "django-insecure-{J40}"),
    ("DISCORD_BOT_TOKEN", "ODU{B23}.{B6}.{B38}", "ODU{B23}.{B6}"),
    ("ZENDESK_API_TOKEN", "ZENDESK_API_TOKEN=«{A40}»", "ZENDESK_API_TOKEN=«{A36}»"),
    ("MOLLIE_API_KEY", "live_{A30}", "live_{A26}"),
    ("VAULT_LEGACY_TOKEN", "s.{A24}", "s.{a24}"),
    ("OPENWEATHER_API_KEY", "GET /data/2.5/weather?q=Oslo&appid=«{H32}»", "GET /data/2.5/weather?q=Oslo&appid=«{H20}»"),
    ("TENCENT_SECRET_ID", "AKID{D4}{A28}", "AKID{A20}"),
    ("YANDEX_OAUTH_TOKEN", "y0_{D4}{B51}", "y0_{B30}"),
    ("LOB_API_KEY", "live_{D4}{H31}", "live_{H30}"),
    ("FIREWORKS_API_KEY", "fw_{A24}", "fw_{a24}"),
    ("VOYAGE_API_KEY", "pa-{B43}", "pa-{a43}"),
    ("MODAL_TOKEN_ID", "ak-{A22}", "ak-{a22}"),
    ("MODAL_TOKEN_SECRET", "as-{A22}", "as-{A18}"),
    ("BACKBLAZE_APPLICATION_KEY", "K00{D1}{A27}", "K00{D1}{A23}"),
    ("BACKBLAZE_KEY_ID", "B2_APPLICATION_KEY_ID=«00{H23}»", "B2_BUCKET_NAME=«00{H23}»"),
    ("HONEYCOMB_INGEST_KEY", "hcaik_{L58}", "hcaik_{L54}"),
    ("RAZORPAY_KEY_ID", "rzp_live_{A14}", "rzp_live_{a14}"),
    ("TAILSCALE_KEY", "tskey-auth-k{A11}CNTRL-{A34}", "tskey-auth-k{A11}CNTRL"),
    # Mercado Pago's access token; its public key ("APP_USR-" and a UUID) is no secret
    ("MERCADOPAGO_ACCESS_TOKEN", "APP_USR-{D16}-{D6}-{H32}-{D9}", "APP_USR-{UUID}"),
    # A Sentry DSN's key; not a 31-digit one
    (
        "SENTRY_DSN_KEY",
        "SENTRY_DSN=https://«{H32}»@o{D6}.ingest.us.sentry.io/{D7}",
        "SENTRY_DSN=https://«{H31}»@o{D6}.ingest.us.sentry.io/{D7}",
    ),
    # An Azure storage account's key in `az storage account keys list`; not one of another length
    (
        "AZURE_STORAGE_KEY",
        '[{"keyName": "key1", "permissions": "FULL", "value": "«{S86}==»"}]',
        '[{"keyName": "key1", "permissions": "FULL", "value": "«{S80}==»"}]',
    ),
    # Alpaca's key id ("PK" paper, "AK" live, 18 capitals and digits); Bybit's 18-character API key; Alchemy's and
    # Infura's keys in their RPC URLs' paths
    ("ALPACA_API_KEY_ID", "APCA_API_KEY_ID=«PK{U18}»", "APCA_API_KEY_ID=«PK{U14}»"),
    ("BYBIT_API_KEY", "BYBIT_API_KEY=«{A18}»", "BYBIT_API_KEY=«{A12}»"),
    (
        "ALCHEMY_API_KEY",
        'rpc = "https://eth-mainnet.g.alchemy.com/v2/«{B32}»"',
        'rpc = "https://eth-mainnet.g.alchemy.com/v2/«{B20}»"',
    ),
    ("INFURA_API_KEY", "https://mainnet.infura.io/v3/«{H32}»", "https://mainnet.infura.io/v3/«{H20}»"),
    ("ONESIGNAL_API_KEY", "os_v2_app_{b110}", "os_v2_app_{b90}"),
    ("OPENAI_KEY_BODY", "{B74}T3BlbkFJ{B74}", "{B74}T3BlbkFX{B74}"),
]
CONTEXTS = [
    'export SERVICE_CREDENTIAL="«»"',
    "Rotated «» after the incident.",
    "config.set('credential', '«»')",
    "--credential «»",
    '{"value": "«»", "note": "prod"}',
    "found «» in the build log",
    "Authorization: «»",
]
MARK = re.compile("«(.*)»", re.S)


def vector(recipe: str, index: int) -> tuple[str, str]:
    """(text, secret) for a recipe: the «» part, or the whole recipe in a rotating context."""
    if "«" not in recipe:
        recipe = CONTEXTS[index % len(CONTEXTS)].replace("«»", f"«{recipe}»")
    text = fill(recipe)
    secret = MARK.search(text)
    assert secret is not None
    return text.replace("«", "").replace("»", ""), secret[1]


def main() -> None:
    rows = []
    for index, (kind, positive, negative) in enumerate(RECIPES):
        text, secret = vector(positive, index)
        negative_recipe = negative if negative is not None else shorten(positive)
        neg_text, neg_secret = vector(negative_recipe, index)
        rows.append(
            {"type": kind, "text": text, "secret": secret, "negative_text": neg_text, "negative_secret": neg_secret}
        )
    OUT.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(len(rows), "rules")


if __name__ == "__main__":
    main()

// Assembles the OpenAPI 3.1 document of the two management operations from the
// §2 schemas (schemas/*.json) and the spec's own tables, never from a second
// hand-written copy. `npm run openapi` writes it to contract/openapi.json, which
// is committed for other tools (mock servers, linters, fuzzers); a self-test
// keeps the file equal to what this module assembles.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadSchemaFiles, TYPES, typeNames } from '../schemas/index.ts';
import type { TypeName } from '../schemas/index.ts';
import { specText } from './clauses.ts';

export const OPENAPI_PATH = fileURLToPath(new URL('./openapi.json', import.meta.url));

type Node = { [k: string]: unknown };

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'The rate limit (spec 7.1, 8).', schema: { type: 'string' } },
  'X-RateLimit-Remaining': {
    description: 'Requests remaining in the current window (spec 7.1, 8).',
    schema: { type: 'string' },
  },
  'X-RateLimit-Reset': {
    description: 'When the window resets (spec 7.1, 8); the value format is not shown.',
    schema: { type: 'string' },
  },
};

/** The OpenAPI 3.1 document, assembled. */
export function buildOpenApi(): Node {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title:
        'Identity Management Service — resource server update, experiment creation and the authentication endpoints exercised',
      version: '2.0',
      description:
        'Assembled by idm-conformance from contract/spec.md and schemas/. Every schema constraint carries `x-clause`, ' +
        'the id of the clause in contract/clauses.json it states; operations list their clauses in `x-clauses`.',
    },
    servers: [
      {
        url: '{base_url}',
        description: 'The management API base: https://<tenant_domain>/api/v2 (spec 1, 9).',
        variables: {
          base_url: {
            default: 'http://127.0.0.1:4810/api/v2',
            description: 'Management API base URL; the default is the embedded reference tenant.',
          },
        },
      },
    ],
    security: [{ bearerAuth: [] }, { clientCredentials: [] }],
    paths: {
      '/resource-servers/{id}': { patch: updateResourceServer() },
      ...authenticationPaths(),
      '/experimentation/experiments': { post: createExperiment() },
    },
    components: { schemas: componentSchemas(), securitySchemes: securitySchemes() },
  };
}

// Management API (§4.1, §4.2)

/** PATCH /resource-servers/{id} (spec 4.1). */
function updateResourceServer(): Node {
  return {
    operationId: 'updateResourceServer',
    summary: 'Update a resource server (spec 4.1)',
    description: 'Partial update. Release lifecycle: Generally Available. Required scope: update:resource_servers.',
    'x-clauses': [
      'rs.update.path.by-id',
      'rs.update.path.by-identifier',
      'rs.update.success.status',
      'rs.update.partial',
      'rs.update.persisted',
    ],
    parameters: [
      {
        name: 'id',
        in: 'path',
        required: true,
        description:
          'The ID or the audience (identifier) of the resource server; an identifier that is a URL is percent-encoded.',
        schema: { type: 'string' },
      },
    ],
    requestBody: { required: true, content: bothMediaTypes('ResourceServerUpdate') },
    responses: {
      '201': {
        description: 'Updated; the body is the resource server (spec 2.1).',
        headers: RATE_LIMIT_HEADERS,
        content: { 'application/json': { schema: ref('ResourceServer') } },
      },
      '400': {
        description:
          'Request body invalid (message varies with the cause); also when the target is a system resource server, which cannot be patched. Error body shape: not shown.',
      },
      '401': { description: 'Token invalid; the client is not global; the JWT signature fails validation.' },
      '403': {
        description: 'Token lacks scope; the message states that one of update:resource_servers is expected.',
      },
      '409': { description: 'A resource server with the same identifier already exists.' },
      '429': {
        description: 'Too many requests; the headers report the limit state.',
        headers: RATE_LIMIT_HEADERS,
      },
    },
    security: [{ bearerAuth: [] }, { clientCredentials: ['update:resource_servers'] }],
  };
}

/** POST /experimentation/experiments (spec 4.2). */
function createExperiment(): Node {
  return {
    operationId: 'createExperiment',
    summary: 'Create an experiment (spec 4.2)',
    description:
      'Create a new experiment with traffic allocations for A/B testing. Which request fields are required, the allocation rules and the name of the ' +
      'allocation strategy attribute (enum percentage | segment) are not shown; the reference tenant names it allocation_strategy.',
    'x-clauses': ['exp.create.accepted', 'exp.create.success.status', 'exp.response.required-fields'],
    requestBody: { required: true, content: bothMediaTypes('ExperimentCreate') },
    responses: {
      '201': {
        description:
          'Created; the body is the experiment (spec 2.4). The spec does not show the success status code (clause exp.create.success.status): ' +
          '201 is the observed/likely code, what the reference tenant answers; a conformant tenant may answer another 2xx.',
        content: { 'application/json': { schema: ref('Experiment') } },
      },
      '4XX': { description: 'Rejected. Error responses of experiment creation: not shown (spec 7.2).' },
    },
    // Spec 5.1: the scope required to create an experiment is not shown.
    security: [{ bearerAuth: [] }, { clientCredentials: [] }],
  };
}

// Components

/** Every §2 schema file as a component, named by its type. */
function componentSchemas(): Node {
  const files = loadSchemaFiles();
  const nameOfFile = new Map<string, TypeName>(typeNames.map((t) => [TYPES[t].file, t]));
  const schemas: Node = {};
  for (const t of typeNames) schemas[t] = toComponent(files[TYPES[t].file] as Node, nameOfFile);
  return schemas;
}

/** The ways to authenticate of spec 5.1 and 5.2 that OpenAPI has a scheme for. */
function securitySchemes(): Node {
  return {
    bearerAuth: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'Authorization: Bearer <ACCESS_TOKEN> (spec 4, 5.1).',
    },
    userBearer: {
      type: 'http',
      scheme: 'bearer',
      description:
        'Spec 5.2 "OAuth2 access token": a user\'s access token for endpoints acting for a user (get user info).',
    },
    clientSecretBasic: {
      type: 'http',
      scheme: 'basic',
      description: 'Spec 5.2 Basic: Base64 of <client_id>:<client_secret>, each form-encoded first (RFC 6749 §2.3.1).',
    },
    mutualTLS: {
      type: 'mutualTLS',
      description:
        'Spec 5.2 mTLS: the edge performs the handshake and forwards cname-api-key (custom domain API key), client-certificate (URL-encoded PEM) and ' +
        'client-certificate-ca-verified (SUCCESS or FAILED: <reason>).',
    },
    clientCredentials: {
      type: 'oauth2',
      description:
        'OAuth 2.0 client credentials (spec 5.1): token endpoint path /oauth/token/ (the spec writes it with a trailing slash), resolved against the tenant origin; ' +
        'form parameter audience with the value /api/v2/, i.e. the management API identifier <tenant origin>/api/v2/.',
      flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: declaredScopes() } },
    },
  };
}

// Authentication API (§4.3, §5.2, §7.3)

/**
 * The authentication-API endpoints the suite exercises (§4.3, §5.2, §7.3), served at
 * {auth_url}. Their paths are not shown by the spec: these are the defaults the suite uses
 * (discovery and IDM_*_PATH settings move them). Client ID/secret in the body (Post) and the
 * client assertion are body parameters, which OpenAPI has no security scheme for.
 */
function authenticationPaths(): Node {
  return {
    '/oauth/token': { servers: AUTH_SERVERS, post: requestToken() },
    '/userinfo': { servers: AUTH_SERVERS, get: getUserInfo() },
    '/authorize': { servers: AUTH_SERVERS, get: authorize() },
    '/login/callback': { servers: AUTH_SERVERS, post: samlIdpInitiated() },
  };
}

const AUTH_SERVERS = [
  {
    url: '{auth_url}',
    description: 'The authentication API base (spec 4.3).',
    variables: {
      auth_url: {
        default: 'http://127.0.0.1:4810',
        description: 'IDM_AUTH_URL; the default is the embedded reference tenant.',
      },
    },
  },
];

/** An authentication-API error answer: an error object (spec 7.3). */
const authError = (description: string): Node => ({
  description,
  content: { 'application/json': { schema: ref('AuthError') } },
});

/** POST /oauth/token: a token by any of the five client authentications of spec 5.2. */
function requestToken(): Node {
  const tokenParams = {
    type: 'object',
    description:
      'OAuth 2.0 token request parameters (the spec does not show their names): grant_type, client_id, client_secret, client_assertion_type, client_assertion, audience, scope, username, password, realm, code, code_verifier, redirect_uri, refresh_token.',
    properties: { grant_type: { type: 'string' }, client_id: { type: 'string' } },
    required: ['grant_type'],
  };
  return {
    operationId: 'requestToken',
    summary: 'Token endpoint of the authentication API (spec 4.3, 5.2)',
    description:
      'Client authentication by any of the five ways of spec 5.2. Parameters as JSON (spec 4.3); the form encoding of OAuth 2.0 is accepted as well.',
    'x-clauses': [
      'auth.api.post-json',
      'auth.method.client-secret-post',
      'auth.method.client-secret-basic',
      'auth.method.client-assertion',
      'auth.method.mtls',
      'auth.token.answer',
      'auth.error.oauth-error',
    ],
    parameters: [
      {
        name: 'cname-api-key',
        in: 'header',
        required: false,
        description: 'mTLS: the custom domain API key (spec 5.2).',
        schema: { type: 'string' },
      },
      {
        name: 'client-certificate',
        in: 'header',
        required: false,
        description: 'mTLS: the client certificate, URL-encoded PEM.',
        schema: { type: 'string' },
      },
      {
        name: 'client-certificate-ca-verified',
        in: 'header',
        required: false,
        description: 'mTLS: SUCCESS or FAILED: <reason>.',
        schema: { type: 'string' },
      },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: tokenParams },
        'application/x-www-form-urlencoded': { schema: tokenParams },
      },
    },
    responses: {
      '200': {
        description: 'A token (RFC 6749 §5.1).',
        content: { 'application/json': { schema: ref('TokenResponse') } },
      },
      '4XX': authError(
        'A faulty request (spec 7.3): wrong or missing client credentials, an invalid grant. 400, 401 and 403 are all seen for client-authentication errors.',
      ),
      '429': {
        description: 'Rate limit breach (spec 7.3): the message asks the caller to check the X-RateLimit-* headers.',
        headers: RATE_LIMIT_HEADERS,
        content: { 'application/json': { schema: ref('AuthError') } },
      },
    },
    security: [{}, { clientSecretBasic: [] }, { mutualTLS: [] }],
  };
}

/** GET /userinfo with a user's access token (spec 5.2 Bearer). */
function getUserInfo(): Node {
  return {
    operationId: 'getUserInfo',
    summary: 'Get user info (spec 4.3), with a user access token (spec 5.2)',
    'x-clauses': ['auth.method.bearer'],
    responses: {
      '200': {
        description: "The user's claims (OpenID Connect Core §5.3.2).",
        content: {
          'application/json': {
            schema: { type: 'object', required: ['sub'], properties: { sub: { type: 'string' } } },
          },
        },
      },
      '4XX': authError(
        "No, a malformed, an expired or another audience's token (RFC 6750 §3.1 names 401 invalid_token).",
      ),
    },
    security: [{ userBearer: [] }],
  };
}

/** GET /authorize: the authorization request, its parameters in the query string. */
function authorize(): Node {
  return {
    operationId: 'authorize',
    summary:
      'Authorization request (spec 4.3: implicit grant, authorization code with or without PKCE); parameters in the query string',
    'x-clauses': ['auth.api.get-query'],
    parameters: [
      'response_type',
      'client_id',
      'redirect_uri',
      'scope',
      'state',
      'audience',
      'nonce',
      'code_challenge',
      'code_challenge_method',
    ].map((name) => ({
      name,
      in: 'query',
      required: ['response_type', 'client_id'].includes(name),
      schema: { type: 'string' },
    })),
    responses: {
      '200': { description: 'The login page.', content: { 'text/html': { schema: { type: 'string' } } } },
      '302': { description: 'A redirect to the login page or back to the redirect URI.' },
      '4XX': authError('A faulty authorization request.'),
    },
    security: [],
  };
}

/** POST /login/callback: SAML IdP-initiated sign-on, the one form-encoded body of spec 4.3. */
function samlIdpInitiated(): Node {
  return {
    operationId: 'samlIdpInitiated',
    summary: 'SAML IdP-initiated single sign-on (spec 4.3): the one exception to JSON bodies',
    'x-clauses': ['auth.api.saml-exception'],
    parameters: [
      {
        name: 'connection',
        in: 'query',
        required: true,
        description: 'The SAML connection.',
        schema: { type: 'string' },
      },
    ],
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            required: ['SAMLResponse'],
            properties: {
              SAMLResponse: { type: 'string', description: 'Base64 SAML response.' },
              RelayState: { type: 'string' },
            },
          },
        },
      },
    },
    responses: {
      '302': { description: 'A valid response: the login continues.' },
      '4XX': authError('An invalid SAML response (never a 5xx).'),
    },
    security: [],
  };
}

/** Serialised exactly as committed in contract/openapi.json. */
export function openApiJson(): string {
  return JSON.stringify(buildOpenApi(), null, 2) + '\n';
}

export function writeOpenApi(path = OPENAPI_PATH): void {
  writeFileSync(path, openApiJson());
}

export function committedOpenApi(path = OPENAPI_PATH): string {
  return readFileSync(path, 'utf8');
}

/**
 * Scope names of the §5.1 table: `<action>:<resource>` for each letter of the
 * Actions column (C=create, R=read, U=update, D=delete).
 */
export function declaredScopes(): Record<string, string> {
  const verbs: Record<string, string> = { C: 'create', R: 'read', U: 'update', D: 'delete' };
  const out: Record<string, string> = {};
  for (const line of specText('5.1').split('\n')) {
    const m = /^\|\s*([a-z_]+)\s*\|\s*([CRUD](?:\s+[CRUD])*)\s*\|$/.exec(line.trim());
    if (!m?.[1] || !m[2]) continue;
    for (const letter of m[2].split(/\s+/))
      out[`${verbs[letter]}:${m[1]}`] = `${verbs[letter]} ${m[1].replace(/_/g, ' ')}`;
  }
  return out;
}

// Helpers

const ref = (t: TypeName): Node => ({ $ref: `#/components/schemas/${t}` });

const bothMediaTypes = (t: TypeName): Node => ({
  'application/json': { schema: ref(t) },
  // Spec §4: bodies are also accepted form-encoded; how nested members are encoded is not shown.
  'application/x-www-form-urlencoded': { schema: ref(t) },
});

/** A schema file as a component: no $schema/$id, file references turned into component references. */
function toComponent(schema: Node, nameOfFile: Map<string, TypeName>): Node {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Node = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === '$schema' || k === '$id') continue;
      if (k === '$ref' && typeof v === 'string') {
        const target = nameOfFile.get(v);
        if (!target) throw new Error(`openapi: $ref to unknown schema file ${v}`);
        out[k] = `#/components/schemas/${target}`;
      } else out[k] = walk(v);
    }
    return out;
  };
  return walk(schema) as Node;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeOpenApi();
  console.log(`wrote ${OPENAPI_PATH}`);
}

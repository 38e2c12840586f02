// The clients each way to authenticate at the token endpoint (§5.2) is tried with, as data: one row
// per way, keyed by its id in IDM_NOT_OFFERED, each client by its name in the configuration
// (cfg.auth.<name>) and each of its fields by the setting that holds it. Data alone, since the
// settings table (lib/config/declarations.ts) declares these settings from here.
import type { Entry } from '../../config/declarations.ts';
import { EMBEDDED } from '../../config/embedded.ts';

const file = { type: 'file' } as const;

/** The custom-domain API key both mTLS clients are forwarded with: one setting. */
const MTLS_API_KEY = {
  name: 'IDM_MTLS_API_KEY',
  embedded: EMBEDDED.mtls.apiKey,
  secret: true,
  doc: 'the custom-domain API key (`cname-api-key`), shared by the CA-verified client',
} as const;

const METHOD_CLIENTS = {
  'client-secret-post': {
    post: {
      id: {
        name: 'IDM_POST_CLIENT_ID',
        embedded: EMBEDDED.post.id,
        unset: '§5.2 client_secret_post skipped',
        doc: 'a `client_secret_post` client',
      },
      secret: {
        name: 'IDM_POST_CLIENT_SECRET',
        embedded: EMBEDDED.post.secret,
        secret: true,
        doc: 'its secret',
      },
    },
  },
  'client-secret-basic': {
    basic: {
      id: {
        name: 'IDM_BASIC_CLIENT_ID',
        embedded: EMBEDDED.basic.id,
        unset: '§5.2 client_secret_basic skipped',
        doc: 'a `client_secret_basic` client (the header is form-encoded per RFC 6749 §2.3.1)',
      },
      secret: {
        name: 'IDM_BASIC_CLIENT_SECRET',
        embedded: EMBEDDED.basic.secret,
        secret: true,
        doc: 'its secret',
      },
    },
  },
  'client-assertion': {
    /** A private_key_jwt client (§5.2 client assertion). */
    pkjwt: {
      id: {
        name: 'IDM_PKJWT_CLIENT_ID',
        embedded: EMBEDDED.pkjwtClientId,
        unset: '§5.2 private_key_jwt (client assertion) skipped',
        doc: 'a `private_key_jwt` client',
      },
      keyFile: {
        name: 'IDM_PKJWT_KEY_FILE',
        kind: file,
        embedded: EMBEDDED.pkjwtKeyFile,
        doc: 'its private key (PEM file)',
      },
    },
  },
  mtls: {
    mtls: {
      id: {
        name: 'IDM_MTLS_CLIENT_ID',
        embedded: EMBEDDED.mtls.id,
        unset: '§5.2 mTLS skipped',
        doc: 'a self-signed mTLS client behind the edge (`self_signed_tls_client_auth`, RFC 8705 §2.2: bound to its registered certificate)',
      },
      apiKey: MTLS_API_KEY,
      certFile: {
        name: 'IDM_MTLS_CERT_FILE',
        kind: file,
        embedded: EMBEDDED.mtls.certFile,
        doc: 'the registered certificate of the mTLS client (PEM file)',
      },
    },
    /** The mTLS client that needs client-certificate-ca-verified: SUCCESS (shares IDM_MTLS_API_KEY). */
    mtlsCa: {
      id: {
        name: 'IDM_MTLS_CA_CLIENT_ID',
        embedded: EMBEDDED.mtlsCa.id,
        unset: '§5.2 mTLS with client-certificate-ca-verified skipped',
        doc: 'an mTLS client that needs `client-certificate-ca-verified: SUCCESS` (needs `IDM_MTLS_API_KEY`)',
      },
      apiKey: MTLS_API_KEY,
      certFile: {
        name: 'IDM_MTLS_CA_CERT_FILE',
        kind: file,
        embedded: EMBEDDED.mtlsCa.certFile,
        doc: 'its certificate (PEM file)',
      },
    },
  },
} as const satisfies Record<string, Record<string, ClientFields>>;

/** The fields of a client, each declared as the setting that holds it (in the authentication API's group). */
type ClientFields = { readonly id: FieldSetting } & Readonly<Record<string, FieldSetting>>;
type FieldSetting = Omit<Entry, 'together'>;

type Rows = typeof METHOD_CLIENTS;
export type MethodId = keyof Rows;
/** A client's name in the configuration (cfg.auth.<name>). */
export type ClientName = { [M in MethodId]: keyof Rows[M] }[MethodId];
/** The settings of a client's fields, by field. */
type ClientOf<C extends ClientName> = { [M in MethodId]: C extends keyof Rows[M] ? Rows[M][C] : never }[MethodId];
/** The configured clients: each its fields' values, or null while its settings are unset. */
export type MethodClients = { [C in ClientName]: { [F in keyof ClientOf<C>]: string } | null };

/** The ids of the ways, in the order §5.2 lists them. */
export const METHOD_IDS = Object.keys(METHOD_CLIENTS) as MethodId[];

/** Each client of a way, by its name in the configuration, with the settings of its fields. */
export function clientsOf(method: MethodId): Array<[ClientName, ClientFields]> {
  return Object.entries(METHOD_CLIENTS[method]) as Array<[ClientName, ClientFields]>;
}

type Declared = { [C in ClientName]: ClientOf<C>[keyof ClientOf<C>] }[ClientName];

/**
 * The settings of every client, each declared once (a field two clients share, once), in the
 * ways' order; a client's own settings are given together or not at all.
 */
export const METHOD_SETTINGS: ReadonlyArray<Declared & { readonly together: string }> = METHOD_IDS.flatMap((m) =>
  clientsOf(m),
).flatMap(([client, fields], i, all) =>
  Object.values(fields)
    .filter((s) => !all.slice(0, i).some(([, earlier]) => Object.values(earlier).includes(s)))
    .map((s) => ({ ...(s as Declared), together: client })),
);

/** The part of oidc-provider (shipped without types) the tests' loopback OpenID Connect provider uses. */
declare module 'oidc-provider' {
  import type { Server } from 'node:http';

  export interface Account { accountId: string; claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown> }
  export interface Configuration {
    clients?: Record<string, unknown>[];
    findAccount?(ctx: unknown, sub: string): Promise<Account | undefined> | Account | undefined;
    claims?: Record<string, string[]>;
    features?: Record<string, { enabled: boolean }>;
    pkce?: { required?: () => boolean };
    cookies?: { keys?: string[] };
    conformIdTokenClaims?: boolean;
    [key: string]: unknown;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    listen(port: number, host?: string, callback?: () => void): Server;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}

import type { SessionUser } from '../http/types.js';

/** What the browser needs to connect: the URL (a path means this site's origin) and MQTT credentials. */
export interface RealtimeConnection {
  url: string;
  username: string;
  /** null: use the session's own bearer token as the password (embedded broker). */
  password: string | null;
  /** The topics this session may subscribe to, for the client's convenience (the broker enforces them). */
  topics: { hospitals: string[]; user: string };
}

/** The realtime channel as other modules see it, whichever broker carries it. */
export interface RealtimeHub {
  readonly kind: 'embedded' | 'rabbitmq';
  /** Sends a JSON payload to everyone subscribed to `topic` (the server may publish anywhere). */
  publish(topic: string, payload: unknown): Promise<void>;
  /** Connection details for this session (RabbitMQ: provisions its credentials). */
  connection(session: SessionUser, token: string): Promise<RealtimeConnection>;
  /** A session ended (logout, lock): its connections close now. */
  endSession(tokenHash: string): void;
  /** A user's sessions may have ended or lost hospitals (password change, administrator's edit): re-check now. */
  recheckUser(userId: number): void;
  close(): Promise<void>;
}

export const encodePayload = (payload: unknown): Buffer => Buffer.from(JSON.stringify(payload ?? null));

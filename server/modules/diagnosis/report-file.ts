import type { FastifyReply } from 'fastify';
import type { Served } from './served.js';

/** A report file with what it is: `X-Report-Document`, and a signed document's SHA-256 (as the verification page shows it). */
export function servedFile(reply: FastifyReply, out: Served, body: Buffer, type: string, name: string, disposition: 'inline' | 'attachment') {
  reply.header('x-report-document', out.kind);
  if (out.sha256) reply.header('x-report-sha256', out.sha256);
  return file(reply, body, type, name, disposition);
}

export function file(reply: FastifyReply, body: Buffer, type: string, name: string, disposition: 'inline' | 'attachment') {
  return reply.header('content-type', type).header('cache-control', 'no-store')
    .header('content-disposition', `${disposition}; filename="report.${name.split('.').pop()}"; filename*=UTF-8''${encodeURIComponent(name)}`).send(body);
}

import { describe, expect, it } from 'vitest';
import { brokerUrl } from './brokerUrl';

describe('brokerUrl', () => {
  const plain = { protocol: 'http:', host: 'pis.local:8001', hostname: 'pis.local' };
  const secure = { protocol: 'https:', host: 'pis.example', hostname: 'pis.example' };
  it('puts a path on this site, ws or wss as the page', () => {
    expect(brokerUrl('/mqtt', plain)).toBe('ws://pis.local:8001/mqtt');
    expect(brokerUrl('/mqtt', secure)).toBe('wss://pis.example/mqtt');
  });
  it('puts a port on this host (RabbitMQ Web-MQTT)', () => {
    expect(brokerUrl(':15675/ws', plain)).toBe('ws://pis.local:15675/ws');
    expect(brokerUrl(':15675/ws', secure)).toBe('wss://pis.example:15675/ws');
  });
  it('keeps a full URL', () => {
    expect(brokerUrl('wss://mq.example/ws', plain)).toBe('wss://mq.example/ws');
  });
});

/**
 * The retained packets the cluster's primary keeps for workers that start later (cluster-relay.ts): the last per
 * topic, at most `maxPackets` of them and `maxBytes` of payload in all. Past either, the packets retained longest ago
 * are let go, as a broker restart would let them go: only the server publishes retained packets (clients' are
 * stripped of the flag), and it does not rely on them surviving.
 */
export class RetainedStore<P extends { payload: string }> {
  private readonly packets = new Map<string, P>();
  private bytes = 0;

  constructor(readonly maxPackets: number, readonly maxBytes: number) {}

  /** Keeps `packet` as the topic's retained one; an empty payload clears it (MQTT 3.1.1 §3.3.1.3). */
  set(topic: string, packet: P): void {
    this.delete(topic);
    if (!packet.payload) return;
    const size = packet.payload.length;
    if (size > this.maxBytes) return;
    this.packets.set(topic, packet);
    this.bytes += size;
    for (const oldest of this.packets.keys()) {
      if (this.packets.size <= this.maxPackets && this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  delete(topic: string): void {
    const old = this.packets.get(topic);
    if (!old) return;
    this.bytes -= old.payload.length;
    this.packets.delete(topic);
  }

  values(): P[] {
    return [...this.packets.values()];
  }

  get size(): number {
    return this.packets.size;
  }

  /** Payload bytes kept (as the relay carries them: base64). */
  get payloadBytes(): number {
    return this.bytes;
  }
}

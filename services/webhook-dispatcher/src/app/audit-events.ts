import type { EventAudit, EventAuditReader } from './ports';

/**
 * The event store as an audit reads it: every payment event stored (by the message that announced it, one
 * `evt_` event each) and the events that were never queued for delivery although their merchant's endpoint
 * had a URL when they were stored. Reading only; the verdict is the auditor's.
 */
export class AuditEvents {
  constructor(private readonly reader: EventAuditReader) {}

  execute(): Promise<EventAudit> {
    return this.reader.audit();
  }
}

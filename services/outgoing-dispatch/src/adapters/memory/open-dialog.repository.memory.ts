import type { OpenDialogMatch, OpenDialogRecord } from '../../domain/dialogs/open-dialog-record';
import type { OpenDialogRepository } from '../../domain/ports';

/** Open dialogs in a map (embedded without a store, and unit tests). */
export class MemoryOpenDialogRepository implements OpenDialogRepository {
  private readonly dialogs = new Map<string, OpenDialogRecord>();

  public async insert(dialog: OpenDialogRecord, keepPerUser: number): Promise<void> {
    for (const [id, d] of this.dialogs) if (d.expiresAt <= dialog.createAt) this.dialogs.delete(id);
    this.dialogs.set(dialog.id, { ...dialog });
    const mine = [...this.dialogs.values()].filter((d) => d.userId === dialog.userId).sort(newestFirst);
    for (const old of mine.slice(keepPerUser)) this.dialogs.delete(old.id);
  }

  public async findOpen(match: OpenDialogMatch, now: number): Promise<OpenDialogRecord | undefined> {
    const found = [...this.dialogs.values()]
      .filter((d) => d.userId === match.userId && (match.url === undefined || d.url === match.url) && d.callbackId === match.callbackId && d.state === match.state && d.expiresAt > now)
      .sort(newestFirst)[0];
    return found ? { ...found } : undefined;
  }

  public async remove(id: string): Promise<boolean> {
    return this.dialogs.delete(id);
  }
}

const newestFirst = (a: OpenDialogRecord, b: OpenDialogRecord): number => b.createAt - a.createAt || (a.id < b.id ? 1 : -1);

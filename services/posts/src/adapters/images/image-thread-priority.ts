import { readFileSync, readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/** libvips names its worker threads so (GLib sets the name; `/proc/<pid>/task/<tid>/comm`). */
const LIBVIPS_WORKER = 'libvips worker';

/** The default nice value of libvips' worker threads (0 = as the rest of the process). */
export const DEFAULT_IMAGE_THREAD_NICE = 10;

/**
 * Runs libvips' worker threads at a lower scheduling priority (a higher nice value) than the event loop's
 * thread, so that on a busy machine the loop thread, woken by a timer or a socket, gets a CPU before image
 * work rather than after it. Linux keeps a nice value per thread: `os.setPriority` with a thread id changes
 * that thread only. libvips keeps its threads and makes more as work needs them, so the process's thread
 * list is read after image work and threads not seen before are lowered once. Elsewhere than Linux, or when
 * nice is 0, it does nothing; a thread that ended meanwhile is skipped. See ADR 0029 (image work).
 */
export class ImageThreadPriority {
  private readonly seen = new Set<string>();
  private disabled: boolean;

  public constructor(
    public readonly nice: number = DEFAULT_IMAGE_THREAD_NICE,
    private readonly tasksDir = '/proc/self/task',
    private readonly renice: (threadId: number, nice: number) => void = setPriority,
  ) {
    this.disabled = nice === 0;
  }

  /** Lowers the threads libvips started since the last call. Cheap when there are none: one readdir. */
  public lowerNewThreads(): void {
    if (this.disabled) return;
    let tasks: string[];
    try {
      tasks = readdirSync(this.tasksDir);
    } catch {
      this.disabled = true; // no /proc: not Linux
      return;
    }
    for (const tid of tasks) {
      if (this.seen.has(tid)) continue;
      this.seen.add(tid);
      try {
        if (readFileSync(`${this.tasksDir}/${tid}/comm`, 'latin1').trim() === LIBVIPS_WORKER) this.renice(Number(tid), this.nice);
      } catch {
        // the thread ended meanwhile
      }
    }
    if (this.seen.size > tasks.length) for (const tid of [...this.seen]) if (!tasks.includes(tid)) this.seen.delete(tid);
  }
}

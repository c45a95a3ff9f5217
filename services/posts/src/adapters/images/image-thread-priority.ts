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
 * that thread only. libvips starts threads as work needs them and ends them after a while idle (the first
 * image after a pause runs on new threads), so while image work runs the process's thread list is read every
 * few ms and threads not seen before are lowered once. Elsewhere than Linux, or when nice is 0, it does
 * nothing; a thread that ended meanwhile is skipped. See ADR 0029 (image work).
 */
export class ImageThreadPriority {
  /** Threads looked at for good (lowered, or not libvips'), and threads looked at once without libvips' name. */
  private readonly seen = new Set<string>();
  private readonly unnamed = new Set<string>();
  private disabled: boolean;
  private watching = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  public constructor(
    public readonly nice: number = DEFAULT_IMAGE_THREAD_NICE,
    private readonly tasksDir = '/proc/self/task',
    private readonly renice: (threadId: number, nice: number) => void = setPriority,
  ) {
    this.disabled = nice === 0;
  }

  /**
   * Image work starts: new threads are looked for every `everyMs` until every started work has called the
   * returned function (which looks once more).
   */
  public watch(everyMs = 2): () => void {
    if (this.disabled) return () => undefined;
    if (this.watching++ === 0) this.timer = setInterval(() => this.lowerNewThreads(), everyMs).unref();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.watching === 0) clearInterval(this.timer);
      this.lowerNewThreads();
    };
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
      let name: string;
      try {
        name = readFileSync(`${this.tasksDir}/${tid}/comm`, 'latin1').trim();
      } catch {
        continue; // the thread ended meanwhile
      }
      if (name === LIBVIPS_WORKER) {
        this.seen.add(tid);
        try {
          this.renice(Number(tid), this.nice);
        } catch {
          // the thread ended meanwhile
        }
      } else if (this.unnamed.delete(tid)) this.seen.add(tid);
      else this.unnamed.add(tid); // a thread only just started may not have its name yet: one more look
    }
    for (const set of [this.seen, this.unnamed]) if (set.size > tasks.length) for (const tid of [...set]) if (!tasks.includes(tid)) set.delete(tid);
  }
}

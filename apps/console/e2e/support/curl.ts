import { execFile } from 'node:child_process';

/** POSTs JSON the way an integration's shell script would (curl; fetch where curl is missing). Answers the body. */
export async function curlPostJson(url: string, body: unknown): Promise<string> {
  const json = JSON.stringify(body);
  try {
    return await new Promise<string>((resolve, reject) => {
      execFile('curl', ['-sS', '--fail-with-body', '-X', 'POST', '-H', 'Content-Type: application/json', '--data-binary', json, url], (error, stdout, stderr) => {
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') reject(error);
        else if (error) reject(new Error(`curl failed: ${stderr || stdout}`));
        else resolve(stdout);
      });
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: json });
    return res.text();
  }
}

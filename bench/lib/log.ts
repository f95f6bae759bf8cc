/** The benchmark's progress, on stderr: stdout holds only its report. */
export const log = (line: string) => process.stderr.write(`${line}\n`);

/** Every line on the terminal starts with the name of the process that wrote it, padded to align. */
const COLOURS = [36, 33, 35, 32, 34, 91, 96, 93, 95, 92];
const RUNNER_COLOUR = 1; // bold

export interface Output {
  /** A writer of lines for one service, or for the runner itself. */
  writer(name: string): (line: string) => void;
}

export function createOutput(
  stream: NodeJS.WritableStream,
  serviceNames: readonly string[],
  runnerName: string,
  colour: boolean,
): Output {
  const width = Math.max(runnerName.length, ...serviceNames.map((name) => name.length));
  return {
    writer(name) {
      const index = serviceNames.indexOf(name);
      const code = index < 0 ? RUNNER_COLOUR : COLOURS[index % COLOURS.length];
      const label = `${name.padEnd(width)} |`;
      const prefix = colour ? `\u001b[${code}m${label}\u001b[0m ` : `${label} `;
      return (line) => {
        stream.write(`${prefix}${line}\n`);
      };
    },
  };
}

/** Keeps the last lines a process wrote, to show when it fails. */
export class RecentLines {
  private readonly lines: string[] = [];

  constructor(private readonly capacity: number) {}

  push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.capacity) this.lines.shift();
  }

  all(): readonly string[] {
    return this.lines;
  }
}

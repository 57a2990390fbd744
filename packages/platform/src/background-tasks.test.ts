import { BackgroundTasks } from './background-tasks';

describe('BackgroundTasks', () => {
  it('drain() waits for every task, those started meanwhile included, and reports failures', async () => {
    const errors: unknown[] = [];
    let settled = 0;
    const tasks = new BackgroundTasks(
      (err) => errors.push(err),
      () => (settled += 1),
    );
    const finished: string[] = [];

    tasks.run(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      finished.push('first');
      tasks.run(async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        finished.push('second');
      });
    });
    tasks.run(async () => {
      throw new Error('boom');
    });
    expect(tasks.size).toBe(2);

    await tasks.drain();

    expect(finished).toEqual(['first', 'second']);
    expect(errors).toEqual([new Error('boom')]);
    expect(settled).toBe(3);
    expect(tasks.size).toBe(0);
  });

  it('catches a task that throws before its first await', async () => {
    const errors: unknown[] = [];
    const tasks = new BackgroundTasks((err) => errors.push(err));

    tasks.run(() => {
      throw new Error('synchronous');
    });
    await tasks.drain();

    expect(errors).toEqual([new Error('synchronous')]);
  });
});

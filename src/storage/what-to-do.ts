// What an operator does about a damaged file the service will not start on, said on the same line as
// the refusal: each file's remedy follows from what it is derived from (docs/operations.md, Backups).
export interface StorageFiles {
  log: string;
  readModel: string;
  checkpoints: string;
  notifications: string;
}

export function whatToDoAbout(file: string, files: StorageFiles): string {
  switch (file) {
    case files.log:
      return 'restore it from a backup; the log is the one store that cannot be rebuilt, and the service does not start without it';
    case files.checkpoints:
      return 'move it aside and start again: the planning and consolidation reactors then read the log from its beginning, and what they did stays done';
    case files.notifications:
      return 'move it aside and start again: it is restored from the delivery outcomes in the log';
    case files.readModel:
      return 'move it aside and start again: it is rebuilt from the log';
    default:
      return 'restore it from a backup, or move it aside if it is derived from the log';
  }
}

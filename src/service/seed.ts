// ORDERS_SEED_FILE: a master-data document applied at start, as PUT /master-data would apply it. A
// file that cannot be read, is invalid or conflicts with what is stored refuses the start: a service
// started without the master data it was told to have would refuse every order on its lanes.
import { readFile } from 'node:fs/promises';
import type { MasterDataService } from '../master-data/master-data-service.js';
import { validateMasterDataDocument } from '../master-data/validate-master-data.js';

export class SeedRejected extends Error {}

export async function applySeed(file: string, masterData: MasterDataService): Promise<void> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new SeedRejected(`ORDERS_SEED_FILE ${file}: ${(error as Error).message}`);
  }
  const validated = validateMasterDataDocument(document);
  if (!validated.ok) throw new SeedRejected(`ORDERS_SEED_FILE ${file} is invalid: ${JSON.stringify(validated.errors)}`);
  const result = await masterData.apply(validated.value);
  if (!result.ok) throw new SeedRejected(`ORDERS_SEED_FILE ${file} conflicts with stored master data: ${JSON.stringify(result.errors)}`);
}

import { afterAll } from 'vitest';
import { removeTempDirs } from './temp';

// Registered first, so it runs after each file's own afterAll hooks (cores closed, servers stopped).
afterAll(() => removeTempDirs());

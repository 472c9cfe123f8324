import { z } from 'zod';
import { SERVICE_REGISTRY } from '../src/main/core/services/registry';
for (const id of ['helpdesk','gmail','calendar','config']) {
  const d = SERVICE_REGISTRY.get(id)!;
  console.log(id, d.actionKeys, JSON.stringify(z.toJSONSchema(d.recordSchema as z.ZodType, { unrepresentable: 'any' })).slice(0, 600));
  console.log((d as any).extraFixtures?.map((e: any) => e.env));
}

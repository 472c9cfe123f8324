import { TOOL_CATALOG } from '../src/main/core/services/tool-catalog';
for (const t of TOOL_CATALOG) console.log(t.writes ? 'W' : 'R', t.service, t.name, t.route, Object.keys(t.input_schema.properties).join(','));

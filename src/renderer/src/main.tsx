import { AllCommunityModule, ModuleRegistry } from 'ag-grid-community';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';

// ag-grid 36 drops unregistered features silently (console error #200): register once, here.
ModuleRegistry.registerModules([AllCommunityModule]);

createRoot(document.getElementById('root')!).render(<App />);

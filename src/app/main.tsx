// Entry point: styles, the composed services, the app.
import '../ui/ui.css';
import './shell.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { composeApp } from './composition.ts';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');
createRoot(container).render(
  <StrictMode>
    <App services={composeApp()} />
  </StrictMode>,
);

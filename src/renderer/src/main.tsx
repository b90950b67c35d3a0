import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import './styles/tokens.css';
import './styles/base.css';
import './styles/app.css';
import './styles/narrow.css';
import './frame/deskWidths.css';
import './styles/preferences.css';

const container = document.getElementById('root');
if (container === null) throw new Error('The page has no #root element to draw Ledgerdesk into.');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

/** Placeholder shell until the renderer issue draws the screens. */
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
      <h1>Ledgerdesk</h1>
      <p>Bank operations on the embedded sandbox bank. The screens arrive with the renderer issue.</p>
    </main>
  );
}

// The Next.js App Router recipe of docs/widgets.md, as a user writes it (test/package/nextjs.test.ts runs it).

// An icon, so that the browser's request for /favicon.ico is not a 404 in the console the test reads.
export const metadata = { title: 'Checkout', icons: { icon: 'data:,' } };
export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

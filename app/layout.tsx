import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: "bootline",
  description: "Reboot incident forensics for Kubernetes nodes",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <header className="topbar">
          <Link href="/" className="brand">
            bootline
          </Link>
          <span className="tagline">reboot incident forensics for Kubernetes nodes</span>
          <span className="spacer" />
          <Link href="/#upload" className="topbar-link">
            upload
          </Link>
        </header>
        <Providers>
          <main id="main" tabIndex={-1}>
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}

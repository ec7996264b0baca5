import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "bootline",
  description: "Reboot incident forensics for Kubernetes nodes",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <a href="/" className="brand">bootline</a>
          <span className="tagline">reboot incident forensics for Kubernetes nodes</span>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}

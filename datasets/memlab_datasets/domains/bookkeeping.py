"""A small company's books: frameworks, software, VAT and its advisers."""

from __future__ import annotations

from memlab_datasets.domains.shapes import Domain, OpenItems, Slot
from memlab_datasets.domains.shared_slots import ANSWER_FORMAT, NAME, REPLY_LANGUAGE

BOOKKEEPING = Domain(
    name="bookkeeping",
    persona="Ledger",
    slots=(
        NAME,
        REPLY_LANGUAGE,
        ANSWER_FORMAT,
        Slot(
            key="company_name",
            category="identity",
            values=(
                "Nordlys AB",
                "Bergstrom Bygg AB",
                "Kaffekoppen AB",
                "Solvik Design AB",
                "Tallgren & Co",
            ),
            state=(
                "Our company is called {v}.",
                "I run a small firm, {v}.",
                "The business is {v}, by the way.",
            ),
            lead_in=("I should tell you about the company I run.",),
            follow=("It's called {v}.",),
            question="What is my company called?",
            topic="my company's name",
            third=("My {who} runs a company called {alt}.",),
        ),
        Slot(
            key="accounting_framework",
            category="decision",
            values=("K2", "K3", "K1"),
            state=(
                "We decided to go with {v}.",
                "We're going with {v} for the annual accounts.",
                "Decision made: {v} it is.",
            ),
            update=(
                "Actually we switched to {v}.",
                "Change of plan, we moved to {v} after all.",
                "Scratch that, the accountant convinced us to use {v}.",
            ),
            confirm=("Still {v} for the annual accounts, nothing changed.",),
            lead_in=("We've been going back and forth on the accounting framework.",),
            follow=("In the end we picked {v}.", "We settled on {v}."),
            question="Which accounting framework did we decide on?",
            topic="our accounting framework",
            third=("My {who}'s company uses {alt} for its accounts.",),
        ),
        Slot(
            key="accounting_software",
            category="decision",
            values=("Fortnox", "Visma eEkonomi", "Bokio", "Speedledger"),
            state=(
                "We picked {v} as our accounting software.",
                "We're using {v} for the books.",
                "The books are kept in {v}.",
            ),
            update=(
                "Actually we moved the books over to {v}.",
                "We've switched our accounting software to {v}.",
            ),
            confirm=("We're still on {v}, it's working fine.",),
            question="Which accounting software do we use?",
            topic="our accounting software",
            third=("My {who} swears by {alt} for bookkeeping.",),
        ),
        Slot(
            key="report_format",
            category="preference",
            values=("PDF", "Excel", "Google Sheets"),
            state=(
                "I prefer reports as {v}.",
                "Send reports in {v}, that works best for me.",
                "{v} is my favourite format for reports.",
            ),
            update=("I've changed my mind, I'd rather get reports in {v}.",),
            question="In which format do I prefer my reports?",
            topic="my preferred report format",
            third=("My {who} always wants reports in {alt}.",),
        ),
        Slot(
            key="vat_period",
            category="constraint",
            values=("monthly", "quarterly", "yearly"),
            state=(
                "We have to report VAT {v}.",
                "Our VAT is filed {v}, the tax agency requires it.",
            ),
            update=("The tax agency moved us to {v} VAT reporting.",),
            question="How often do we have to report VAT?",
            topic="our VAT period",
        ),
        Slot(
            key="fiscal_year_end",
            category="constraint",
            values=("31 December", "30 June", "30 April"),
            state=(
                "Our fiscal year ends on {v}.",
                "Remember that our financial year closes on {v}.",
            ),
            question="When does our fiscal year end?",
            topic="the end of our fiscal year",
        ),
        Slot(
            key="bank",
            category="knowledge",
            values=("Handelsbanken", "SEB", "Swedbank", "Nordea"),
            state=(
                "Our business account is with {v}.",
                "We bank with {v}.",
            ),
            update=("We moved our business account to {v}.",),
            question="Which bank is our business account with?",
            topic="our bank",
            third=("My {who} banks with {alt}.",),
        ),
        Slot(
            key="accountant",
            category="knowledge",
            values=("Maria Lind", "Johan Ek", "Sara Holm"),
            state=(
                "Our external accountant is {v}.",
                "{v} does our year-end closing.",
            ),
            update=("We changed accountants, it's {v} now.",),
            question="Who is our external accountant?",
            topic="our external accountant",
        ),
        Slot(
            key="auditor",
            category="knowledge",
            values=("Grant Thornton", "KPMG", "Baker Tilly"),
            state=("Our auditor is {v}.", "We hired {v} as auditor."),
            question="Which auditor did we hire?",
            topic="our auditor",
            third=("My {who}'s company hired {alt} as auditor.",),
        ),
    ),
    open_items=OpenItems(
        tasks=(
            "file the Q3 VAT return",
            "chase the unpaid invoice from Kvarnen",
            "book the year-end meeting with the accountant",
            "reconcile the December bank statement",
            "renew the company insurance",
        ),
        numbered="chase payment for invoice {n}",
    ),
    chatter=(
        "How do I book a customer refund?",
        "Can you explain how depreciation works for a laptop?",
        "What's the difference between an invoice and a receipt?",
        "How should I categorize a team lunch?",
        "Is a parking fee a deductible expense?",
        "What does accrual accounting mean in practice?",
    ),
    chatter_replies=(
        "Sure. In short: record it against the original sale and reverse the VAT.",
        "Spread the cost over its useful life, usually three to five years.",
        "An invoice asks for payment; a receipt shows it was made.",
        "Usually as representation; the deductible share is limited.",
        "Often yes, when it is for business travel; keep the receipt.",
        "You record income and costs when they arise, not when cash moves.",
    ),
)

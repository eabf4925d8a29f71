from manga_app.jobs.consumer import main

main()
